import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { islandEvent } from '@/lib/island-event'

describe('islandEvent: the one bus between client islands', () => {
  beforeEach(() => vi.stubGlobal('window', new EventTarget()))
  afterEach(() => vi.unstubAllGlobals())

  it('delivers the detail to every listener on its channel, and to no other channel', () => {
    const toggle = islandEvent<{ location: string }>('test:toggle')
    const other = islandEvent<string>('test:other')
    const seen: string[] = []
    toggle.on((detail) => seen.push(`a:${detail.location}`))
    toggle.on((detail) => seen.push(`b:${detail.location}`))
    other.on((detail) => seen.push(`other:${detail}`))
    toggle.emit({ location: 'hero' })
    expect(seen).toEqual(['a:hero', 'b:hero'])
  })

  it('stops calling a listener once unsubscribed', () => {
    const opened = islandEvent('test:open')
    const listener = vi.fn()
    const off = opened.on(listener)
    opened.emit()
    off()
    opened.emit()
    expect(listener).toHaveBeenCalledTimes(1)
  })

  it('two channel objects with one name are one channel (islands declare it once each side)', () => {
    const sender = islandEvent<number>('test:shared')
    const receiver = islandEvent<number>('test:shared')
    const listener = vi.fn()
    receiver.on(listener)
    sender.emit(7)
    expect(listener).toHaveBeenCalledWith(7)
  })

  it('with nobody listening an emit goes nowhere and does not throw', () => {
    expect(() => islandEvent<string>('test:nobody').emit('x')).not.toThrow()
  })
})
