import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'

/**
 * How busy the machine was while the bench ran: the load average, and the CPU the bench's own
 * processes (itself, its servers, every Chromium, counted through the kernel's per-process times)
 * used against everything else. On a shared machine the last one says whether a slow figure is the
 * site's or a neighbour's. Linux only (/proc); elsewhere only the load average is known.
 */

/** One reading: cumulative CPU ticks of the machine and of the bench's process tree. */
export type CpuReading = { at: number; loadAverage: number; busyTicks: number | null; totalTicks: number | null; ownTicks: number | null }

export type MachineLoad = {
  samples: number
  cores: number
  /** The 1-minute load average over the run. */
  loadAverage: { min: number; median: number; max: number }
  /** Cores' worth of CPU in use on average, by the bench's processes and by all others; null where /proc is missing. */
  benchCores: number | null
  otherCores: number | null
}

/** Machine-wide busy and total ticks from /proc/stat's first line. */
export function parseProcStat(text: string): { busy: number; total: number } {
  const fields = (text.split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number)
  // user nice system idle iowait irq softirq steal: idle and iowait are the idle ones.
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0)
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0)
  return { busy: total - idle, total }
}

/** A process's parent and its CPU ticks, its reaped children's included, from /proc/<pid>/stat. */
export function parsePidStat(text: string): { ppid: number; ticks: number } {
  // The command name is in parentheses and may hold spaces: the fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const at = (field: number) => Number(fields[field - 3] ?? 0)
  return { ppid: at(4), ticks: at(14) + at(15) + at(16) + at(17) }
}

/** Ticks of `root` and of every live process below it. */
export function treeTicks(processes: ReadonlyMap<number, { ppid: number; ticks: number }>, root: number): number {
  const children = new Map<number, number[]>()
  for (const [pid, { ppid }] of processes) children.set(ppid, [...(children.get(ppid) ?? []), pid])
  let ticks = 0
  const stack = [root]
  while (stack.length > 0) {
    const pid = stack.pop()!
    ticks += processes.get(pid)?.ticks ?? 0
    stack.push(...(children.get(pid) ?? []))
  }
  return ticks
}

function read(root: number): CpuReading {
  const loadAverage = os.loadavg()[0] ?? 0
  try {
    const { busy, total } = parseProcStat(readFileSync('/proc/stat', 'utf8'))
    const processes = new Map<number, { ppid: number; ticks: number }>()
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue
      try {
        processes.set(Number(name), parsePidStat(readFileSync(`/proc/${name}/stat`, 'utf8')))
      } catch {
        // It ended while we looked.
      }
    }
    return { at: Date.now(), loadAverage, busyTicks: busy, totalTicks: total, ownTicks: treeTicks(processes, root) }
  } catch {
    return { at: Date.now(), loadAverage, busyTicks: null, totalTicks: null, ownTicks: null }
  }
}

/** What the readings say: the load average's spread, and the cores' worth used by the bench and by others between the first and the last. */
export function summarizeLoad(readings: readonly CpuReading[], cores: number): MachineLoad {
  if (readings.length === 0) throw new Error('No readings of the machine')
  const loads = readings.map((reading) => reading.loadAverage).sort((a, b) => a - b)
  const first = readings[0]!
  const last = readings[readings.length - 1]!
  const round = (value: number) => Math.round(value * 100) / 100
  let benchCores: number | null = null
  let otherCores: number | null = null
  if (first.totalTicks !== null && last.totalTicks !== null && last.totalTicks > first.totalTicks) {
    // /proc/stat's ticks are summed over every core: a share of them times the cores is cores in use.
    const span = (last.totalTicks - first.totalTicks) / cores
    const busy = (last.busyTicks! - first.busyTicks!) / span
    const own = Math.max(0, (last.ownTicks! - first.ownTicks!) / span)
    benchCores = round(Math.min(own, busy))
    otherCores = round(Math.max(0, busy - own))
  }
  return {
    samples: readings.length,
    cores,
    loadAverage: { min: round(loads[0]!), median: round(loads[Math.floor(loads.length / 2)]!), max: round(loads[loads.length - 1]!) },
    benchCores,
    otherCores,
  }
}

/** Reads the machine every `intervalMs` until stopped; the bench's process tree is rooted at this process. */
export function sampleMachine(intervalMs = 5_000): { stop: () => MachineLoad } {
  const readings = [read(process.pid)]
  const timer = setInterval(() => readings.push(read(process.pid)), intervalMs)
  timer.unref()
  return {
    stop: () => {
      clearInterval(timer)
      readings.push(read(process.pid))
      return summarizeLoad(readings, os.cpus().length)
    },
  }
}
