import { createServer, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { assertPortFree } from '../../tools/local/run'

describe('assertPortFree', () => {
  it('refuses a port something already listens on, so a stale server is never measured', async () => {
    const server = createServer().listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as AddressInfo
    try {
      await expect(assertPortFree(port, 'the site under test')).rejects.toThrow(`Port ${port} (the site under test) is already in use`)
    } finally {
      server.close()
    }
    await new Promise((resolve) => server.once('close', resolve))
    await expect(assertPortFree(port, 'the site under test')).resolves.toBeUndefined()
  })
})
