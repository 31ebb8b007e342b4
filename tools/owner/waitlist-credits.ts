/**
 * Site owner command: referral credits held for a founder's decision (tools/owner/credits.ts).
 *
 *   npm run waitlist:credits -- --held [--all]    list the held credits (--all: decided ones too)
 *   npm run waitlist:credits -- --grant 12        grant credit 12: it counts like any other
 *   npm run waitlist:credits -- --refuse 12       refuse credit 12: it stays uncounted
 *
 * Each credit is decided once: a second grant or refuse changes nothing and says so. Reads the
 * service-role key from the environment like the other owner commands, else the local double.
 */
import { parseArgs } from 'node:util'
import { decideCredit, formatDecision, formatHeldCredits, listHeldCredits } from './credits'
import { ownerClient } from './owner'

const usage = 'Usage: npm run waitlist:credits -- (--held [--all] | --grant ID | --refuse ID)'

let args
try {
  args = parseArgs({
    options: { held: { type: 'boolean', default: false }, all: { type: 'boolean', default: false }, grant: { type: 'string' }, refuse: { type: 'string' } },
    strict: true,
  })
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`)
  process.exit(2)
}
const { held, all, grant, refuse } = args.values
const chosen = [held, grant !== undefined, refuse !== undefined].filter(Boolean).length
const id = Number(grant ?? refuse)
if (chosen !== 1 || (!held && !(/^\d{1,18}$/.test(grant ?? refuse ?? '') && Number.isSafeInteger(id) && id >= 1))) {
  console.error(`Give one of --held, --grant ID or --refuse ID (ID: a credit's number from --held).\n${usage}`)
  process.exit(2)
}

try {
  const { config, client } = ownerClient(process.env)
  console.error(`Waitlist at ${config.url}${config.local ? ' (local)' : ''}`)
  if (held) {
    process.stdout.write(formatHeldCredits(await listHeldCredits(client, all)))
  } else {
    const result = await decideCredit(client, id, grant !== undefined)
    process.stdout.write(formatDecision(id, grant !== undefined, result))
    if (result === null) process.exit(1)
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
