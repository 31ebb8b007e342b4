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
