import { describe, expect, it } from 'vitest'
import { parsePidStat, parseProcStat, summarizeLoad, treeTicks, type CpuReading } from '../../tools/bench/machine-load'

describe('how busy the machine was', () => {
  it("reads the machine's busy and total ticks from /proc/stat (idle and iowait are idle)", () => {
    expect(parseProcStat('cpu  100 5 50 800 20 3 2 10 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n')).toEqual({ busy: 170, total: 990 })
  })

  it("reads a process's parent and its CPU ticks, its reaped children's included, whatever its name", () => {
    const stat = '4242 (next-server (v16.4.6)) S 4200 4242 4200 0 -1 4194304 97 0 0 0 300 40 20 5 20 0 1 0 2267438 3133440 380'
    expect(parsePidStat(stat)).toEqual({ ppid: 4200, ticks: 365 })
  })

  it("counts the bench's own process tree and nothing else", () => {
    const processes = new Map([
      [10, { ppid: 1, ticks: 100 }],
      [11, { ppid: 10, ticks: 50 }],
      [12, { ppid: 11, ticks: 25 }],
      // A neighbour's process, and its child.
      [20, { ppid: 1, ticks: 1_000 }],
      [21, { ppid: 20, ticks: 500 }],
    ])
    expect(treeTicks(processes, 10)).toBe(175)
  })

  it("gives the load average's spread and the cores' worth used by the bench and by other processes", () => {
    const reading = (at: number, loadAverage: number, busy: number, total: number, own: number): CpuReading => ({
      at,
      loadAverage,
      busyTicks: busy,
      totalTicks: total,
      ownTicks: own,
    })
    // 2 cores for 10 s at 100 ticks a second: 2,000 ticks; 1,500 busy, 1,000 of them the bench's.
    const load = summarizeLoad(
      [reading(0, 2.5, 10_000, 50_000, 3_000), reading(5_000, 1.25, 10_700, 51_000, 3_400), reading(10_000, 4, 11_500, 52_000, 4_000)],
      2,
    )
    expect(load).toEqual({ samples: 3, cores: 2, loadAverage: { min: 1.25, median: 2.5, max: 4 }, benchCores: 1, otherCores: 0.5 })
  })

  it('says only the load average where /proc cannot be read', () => {
    const reading: CpuReading = { at: 0, loadAverage: 1, busyTicks: null, totalTicks: null, ownTicks: null }
    expect(summarizeLoad([reading, reading], 2)).toMatchObject({ benchCores: null, otherCores: null, loadAverage: { min: 1, median: 1, max: 1 } })
  })
})
