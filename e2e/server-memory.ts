import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { request } from 'node:http'

// The site server's own memory, read from /proc as `ps` would: which process listens on the port
// (its socket's inode in /proc/net/tcp*, found among the processes' open files), and its resident size.

export function pidListeningOn(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0')
  const inodes = new Set<string>()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      // local_address is "ADDR:PORT"; state 0A is LISTEN; the inode is the tenth field.
      if (fields[1]?.endsWith(`:${hex}`) && fields[3] === '0A' && fields[9]) inodes.add(fields[9])
    }
  }
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let fds: string[]
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`)
        if (inodes.has(target.replace(/^socket:\[(\d+)\]$/, '$1'))) return Number(pid)
      } catch {
        // The file closed meanwhile.
      }
    }
  }
  throw new Error(`no process listens on port ${port}`)
}

/** Resident memory of a process, in MB. */
export function residentMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  return Number(kb) / 1024
}

/**
 * POSTs `megabytes` of zeros to `url` as fast as the server takes them, as an attacker with curl
 * would; resolves with the answer's status (null when the server cut the connection first).
 */
export function pour(url: string, megabytes: number, headers: Record<string, string> = {}): Promise<number | null> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(1024 * 1024)
    let status: number | null = null
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      status = response.statusCode ?? null
      response.resume()
      response.on('end', () => resolve(status))
    })
    req.on('error', () => resolve(status))
    let sent = 0
    const write = () => {
      while (sent < megabytes) {
        sent++
        if (!req.write(chunk)) return void req.once('drain', write)
      }
      req.end()
    }
    write()
  })
}
