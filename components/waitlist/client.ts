/**
 * The browser's Supabase client for the waitlist form. Imported dynamically on
 * submit, so supabase-js stays out of the page's initial JavaScript; keep this
 * module free of server-only imports.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import type { Database } from '@/supabase/types.generated'

export function createWaitlistClient(url: string, anonKey: string): SupabaseClient<Database> {
  if (!url || !anonKey) throw new Error('createWaitlistClient needs the project URL and the public anon key')
  return createClient<Database>(url, anonKey, {
    // Visitors never sign in here: no session to store, refresh or pick up from the URL,
    // so every request carries the anon key and nothing lingers in localStorage.
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
}
