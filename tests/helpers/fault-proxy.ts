/**
 * A TCP proxy on 127.0.0.1 in front of a real server (the local Supabase API, maildev's SMTP), for
 * the fault tests: `pass` forwards, `refuse` closes the port (connections refused), `hang` accepts
 * connections and never forwards a byte (a server that took the connection and went silent).
 * Every change of mode drops the open connections, as a server that died or hung would.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net'

export type FaultMode = 'pass' | 'refuse' | 'hang'

export type FaultProxy = {
  port: number
  mode(): FaultMode
  set(mode: FaultMode): Promise<void>
  close(): Promise<void>
}

export async function startFaultProxy(targetPort: number): Promise<FaultProxy> {
  let mode: FaultMode = 'pass'
  const open = new Set<Socket>()
  const track = (socket: Socket) => {
    open.add(socket)
    socket.on('close', () => open.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const server: Server = createServer((client) => {
    track(client)
    if (mode === 'hang') return
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort })
    track(upstream)
    client.pipe(upstream).pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()))
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()))
  await listen(0)
  const port = (server.address() as { port: number }).port
  const dropAll = () => {
    for (const socket of open) socket.destroy()
  }
  return {
    port,
    mode: () => mode,
    async set(next) {
      dropAll()
      if (next === 'refuse') await stopListening()
      else if (!server.listening) await listen(port)
      mode = next
    },
    async close() {
      dropAll()
      await stopListening()
    },
  }
}
