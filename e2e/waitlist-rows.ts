import { createClient } from '@supabase/supabase-js'
import { LOCAL_SERVICE_ROLE_KEY } from '../tools/supabase-local/keys'
import { E2E } from '../tools/test/e2e-env'

export const supabaseUrl = `http://127.0.0.1:${E2E.supabasePort}`

// The site owner's view of the test database: what was really stored.
const owner = createClient(supabaseUrl, LOCAL_SERVICE_ROLE_KEY, { auth: { persistSession: false } })

export async function rowsFor(email: string) {
  const { data, error } = await owner.from('waitlist').select('name, email, project').ilike('email', email.trim())
  if (error) throw new Error(error.message)
  return data
}

/** The outbox's erasure e-mails ("Delete me"): their status and what they still hold. */
export async function erasureMessages() {
  const { data, error } = await owner.from('waitlist_outbox').select('status, entry_id, payload').eq('kind', 'erasure_email')
  if (error) throw new Error(error.message)
  return data
}

/** An entry's status as the owner sees it ('pending', 'confirmed'), or null when there is none. */
export async function statusOf(email: string): Promise<string | null> {
  const { data, error } = await owner.from('waitlist').select('status').ilike('email', email.trim())
  if (error) throw new Error(error.message)
  return (data[0] as { status: string } | undefined)?.status ?? null
}
