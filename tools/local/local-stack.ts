import { spawn, type ChildProcess } from 'node:child_process'
import { LOCAL_MAIL_WEB_PORT, LOCAL_SMTP_PORT, localEnv, usesLocalMail, usesLocalSupabase } from './local-env'
import { supervise, waitForUrl } from './run'

/**
 * Starts what a local run of the site needs beside Next.js: the embedded waitlist
 * database (unless the environment points at a real Supabase project), maildev with the
 * outbox dispatch loop (unless SMTP_URL names another server; the loop runs either way), then
 * Next itself: one server on each of `ports` (the first is the one the mail loop calls).
 */
export async function startLocalStack(nextArgs: string[], ports: string | string[], overrides: Record<string, string> = {}): Promise<void> {
  const env = localEnv(overrides)
  const [port, ...others] = typeof ports === 'string' ? [ports] : ports
  if (!port) throw new Error('startLocalStack: no port')
  const children: ChildProcess[] = []
  if (usesLocalSupabase(env)) {
    const supabase = spawn('tsx', ['tools/supabase-local/main.ts'], { stdio: 'inherit', env })
    children.push(supabase)
    supervise(children)
    await waitForUrl(`${env.NEXT_PUBLIC_SUPABASE_URL}/health`)
  } else {
    console.log(`Waitlist: ${env.NEXT_PUBLIC_SUPABASE_URL} (from your environment)`)
  }
  for (const each of [port, ...others]) children.push(spawn('next', [...nextArgs, '--port', each], { stdio: 'inherit', env }))
  const site = `http://localhost:${port}`
  const mail = usesLocalMail(env) ? ['--smtp', String(LOCAL_SMTP_PORT), '--web', String(LOCAL_MAIL_WEB_PORT)] : ['--external-smtp']
  children.push(spawn('tsx', ['tools/local/mail-catcher.ts', ...mail, '--site', site], { stdio: 'inherit', env }))
  supervise(children)
}
