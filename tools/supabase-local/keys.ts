/**
 * Supabase's well-known LOCAL DEMO credentials: the exact keys `supabase start`
 * prints, so code pointed at the local PostgREST double behaves the same when
 * pointed at a real local Supabase stack.
 *
 * They are public (published in Supabase's docs and CLI), sign nothing of
 * value and must never be used for a hosted project.
 *
 * Plain string constants on purpose: this module is safe to import from
 * browser code. Signing and verification live in ./jwt.ts (node:crypto).
 */

export const LOCAL_SUPABASE_URL = 'http://127.0.0.1:54321'

export const LOCAL_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'

/** HS256 JWT of {"iss":"supabase-demo","role":"anon","exp":1983812996}. */
export const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0'

/** HS256 JWT of {"iss":"supabase-demo","role":"service_role","exp":1983812996}. */
export const LOCAL_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU'
