/**
 * A proxy's address store in a process of its own that never receives the publish webhook, as a
 * platform's middleware runs apart from the server: asks for `path` every 20 ms and prints one
 * JSON line when the store first answers it as a page (tests/integration/shared-cache.test.ts).
 */
import { addresses, answerFor } from '@/sanity/content/addresses'

const path = process.argv[2]!
await addresses()
console.log(JSON.stringify({ ready: true }))
for (;;) {
  if (answerFor(await addresses(), path).kind === 'page') {
    console.log(JSON.stringify({ servedAt: Date.now() }))
    process.exit(0)
  }
  await new Promise((resolve) => setTimeout(resolve, 20))
}
