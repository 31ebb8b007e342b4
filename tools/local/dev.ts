/** `npm run dev`: Next's dev server beside the local waitlist database. */
import { startLocalStack } from './local-stack'

await startLocalStack(['dev'], process.env.PORT ?? '3000')
