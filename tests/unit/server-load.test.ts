import { describe, expect, it } from 'vitest'
import { nearestBySize, proxyShare } from '../../tools/bench/server-load'

describe("the server table's comparisons", () => {
  const floor = [
    { path: '/text/40', bytes: 30_000 },
    { path: '/text/160', bytes: 110_000 },
    { path: '/text/260', bytes: 178_000 },
    { path: '/text/390', bytes: 267_000 },
  ]

  it('holds a route against the floor page nearest its uncompressed size, by ratio', () => {
    expect(nearestBySize(183_600, floor).path).toBe('/text/260')
    expect(nearestBySize(123_000, floor).path).toBe('/text/160')
    // 60 kB is 2 × 30 kB but only 1.83 × under 110 kB: by ratio the larger page is nearer.
    expect(nearestBySize(60_000, floor).path).toBe('/text/160')
    expect(nearestBySize(101, floor).path).toBe('/text/40')
    expect(() => nearestBySize(1_000, [])).toThrow('No floor pages')
  })

  it("takes the proxy's share as the time it adds to a saturated server's request", () => {
    expect(proxyShare(750, 1_000)).toBeCloseTo(0.25)
    expect(proxyShare(1_000, 1_000)).toBe(0)
    // Noise can make the bypassed server the slower one: reported as measured.
    expect(proxyShare(1_050, 1_000)).toBeCloseTo(-0.05)
  })
})
