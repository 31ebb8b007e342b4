/**
 * Site owner command: the opt-in leaderboard from the founders' side (tools/owner/tasks.ts,
 * supabase/schemas/20_leaderboard.sql).
 *
 *   npm run waitlist:leaderboard                      the opted-in entries at the top, hidden ones marked
 *   npm run waitlist:leaderboard -- --hide ID         take entry ID off the board (it stays opted in)
 *   npm run waitlist:leaderboard -- --show ID         put it back
 *   npm run waitlist:leaderboard -- --block WORD      refuse nicknames holding WORD (any case, any punctuation)
 *   npm run waitlist:leaderboard -- --unblock WORD    allow it again
 *
 * The board's page shows a change at its next refresh (LEADERBOARD_REFRESH_SECONDS). Reads the
 * service-role key from the environment like the other owner commands, else the local double.
 */
import { parseArgs } from 'node:util'
import { ownerClient, terminalSafe } from './owner'
import { changeBlocklist, hideOnBoard, listBoardEntries } from './tasks'

const usage = 'Usage: npm run waitlist:leaderboard -- [--hide ID | --show ID | --block WORD | --unblock WORD]'

let args
try {
  args = parseArgs({ options: { hide: { type: 'string' }, show: { type: 'string' }, block: { type: 'string' }, unblock: { type: 'string' } }, strict: true })
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`)
  process.exit(2)
}
const { hide, show, block, unblock } = args.values
const entry = hide ?? show
if ([hide, show, block, unblock].filter((value) => value !== undefined).length > 1) {
  console.error(`One change at a time.\n${usage}`)
  process.exit(2)
}
if (entry !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(entry)) {
  console.error(`ID is an entry's id, as the list shows it.\n${usage}`)
  process.exit(2)
}

try {
  const { config, client } = ownerClient(process.env)
  console.error(`Waitlist at ${config.url}${config.local ? ' (local)' : ''}`)
  if (entry !== undefined) {
    const result = await hideOnBoard(client, entry, hide !== undefined)
    if (result === null) {
      console.error(`${entry} is not on the leaderboard (not opted in).`)
      process.exit(1)
    }
    console.log(
      result.changed ? `${entry} ${hide ? 'hidden' : 'shown'} from the next refresh.` : `${entry} was already ${hide ? 'hidden' : 'shown'}: nothing changed.`,
    )
  } else if (block !== undefined || unblock !== undefined) {
    const words = await changeBlocklist(client, block ? [block] : [], unblock ? [unblock] : [])
    console.log(`Blocked words: ${words.join(', ') || '(none)'}`)
  } else {
    const entries = await listBoardEntries(client)
    if (entries.length === 0) console.log('Nobody has opted in to the leaderboard.')
    for (const [index, row] of entries.entries())
      console.log(
        terminalSafe(
          `${String(index + 1).padStart(3)}  ${row.referrals.toString().padStart(5)}  ${row.board_name}  ${row.email}  ${row.entry_id}${row.hidden ? '  (hidden)' : ''}`,
        ),
      )
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
