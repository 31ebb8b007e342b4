/**
 * A tiny DNS server over UDP for the tests of `npm run mail:check` (tools/launch/sender-dns.ts):
 * answers TXT questions from a table, NXDOMAIN for any other name, NOERROR with no answer for
 * another type of a known name. Only what node:dns's resolver sends: one question, no EDNS
 * options honoured (an OPT record in the query is ignored), no compression in questions.
 */
import { createSocket, type Socket } from 'node:dgram'
import type { AddressInfo } from 'node:net'

const TXT = 16

export type TxtRecords = Record<string, string[]>

function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = []
  let at = offset
  for (;;) {
    const length = message[at] ?? 0
    if (length === 0) return { name: labels.join('.').toLowerCase(), end: at + 1 }
    labels.push(message.subarray(at + 1, at + 1 + length).toString('latin1'))
    at += 1 + length
  }
}

/** A TXT record's RDATA: the text in character-strings of at most 255 bytes. */
function txtData(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8')
  const parts: Buffer[] = []
  for (let at = 0; at < bytes.length || at === 0; at += 255) {
    const chunk = bytes.subarray(at, at + 255)
    parts.push(Buffer.from([chunk.length]), chunk)
    if (bytes.length === 0) break
  }
  return Buffer.concat(parts)
}

export function dnsAnswer(query: Buffer, records: TxtRecords): Buffer {
  const id = query.readUInt16BE(0)
  const { name, end } = readName(query, 12)
  const type = query.readUInt16BE(end)
  const question = query.subarray(12, end + 4)
  const texts = records[name]
  const answers = texts && type === TXT ? texts : []
  const header = Buffer.alloc(12)
  header.writeUInt16BE(id, 0)
  // QR, opcode 0, AA, RD copied, RA; rcode 3 (NXDOMAIN) for a name the table does not have.
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | (texts ? 0 : 3), 2)
  header.writeUInt16BE(1, 4)
  header.writeUInt16BE(answers.length, 6)
  const records_ = answers.map((text) => {
    const data = txtData(text)
    const fixed = Buffer.alloc(12)
    fixed.writeUInt16BE(0xc00c, 0) // the name: a pointer to the question's
    fixed.writeUInt16BE(TXT, 2)
    fixed.writeUInt16BE(1, 4)
    fixed.writeUInt32BE(60, 6)
    fixed.writeUInt16BE(data.length, 10)
    return Buffer.concat([fixed, data])
  })
  return Buffer.concat([header, question, ...records_])
}

export type DnsServer = { address: string; records: TxtRecords; close(): Promise<void> }

/** Serves `records` on 127.0.0.1 (a free port unless given); `records` can be changed while it runs. */
export async function startDnsServer(records: TxtRecords, port = 0): Promise<DnsServer> {
  const socket: Socket = createSocket('udp4')
  const table = records
  socket.on('message', (message, peer) => {
    try {
      socket.send(dnsAnswer(message, table), peer.port, peer.address)
    } catch {
      // A malformed query gets no answer, as from a real server that drops it.
    }
  })
  await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve))
  const { port: bound } = socket.address() as AddressInfo
  return { address: `127.0.0.1:${bound}`, records: table, close: () => new Promise((resolve) => socket.close(() => resolve())) }
}
