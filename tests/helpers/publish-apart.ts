/**
 * What the publish webhook does to the shared Redis, in a process of its own: another instance
 * receiving a publish that changed addresses (tests/faults/redis.test.ts).
 */
import { forgetAddresses } from '@/sanity/content/addresses'

await forgetAddresses()
process.exit(0)
