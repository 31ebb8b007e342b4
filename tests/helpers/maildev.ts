/**
 * maildev on free loopback ports for the outbox tests, with its REST API: what actually arrived.
 */
import { startMaildev } from '@/tools/local/local-mail'
import { freePort } from '@/tools/local/run'

export type ReceivedEmail = {
  subject: string
  from: { address: string; name: string }[]
  to: { address: string; name: string }[]
  headers: Record<string, string>
  html: string
  text: string
}

export async function startTestMail() {
  const smtpPort = await freePort()
  const webPort = await freePort()
  let server: Awaited<ReturnType<typeof startMaildev>> | null = await startMaildev({ smtpPort, webPort })
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    async inbox(): Promise<ReceivedEmail[]> {
      const response = await fetch(`http://127.0.0.1:${webPort}/api/email`)
      return (await response.json()) as ReceivedEmail[]
    },
    async clear() {
      await fetch(`http://127.0.0.1:${webPort}/api/email/all`, { method: 'DELETE' })
    },
    /** The SMTP server goes away (connections refused) until start(). */
    async stop() {
      await server?.stop()
      server = null
    },
    async start() {
      server ??= await startMaildev({ smtpPort, webPort })
    },
  }
}
