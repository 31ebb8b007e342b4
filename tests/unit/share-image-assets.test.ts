import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fontsFor, loadAdditionalAsset, loadEmoji, twemojiName, type TextRun } from '@/components/seo/share-image-assets'

// What the share images are drawn with: which font files a title loads (only the subsets its
// characters need) and which Twemoji picture an emoji gets.

const headline = (text: string): TextRun[] => [{ text, weight: 800 }]
const names = async (runs: TextRun[]) => (await fontsFor(runs)).map((font) => `${font.name}@${font.weight}`)
const bytes = async (runs: TextRun[]) => (await fontsFor(runs)).reduce((sum, font) => sum + font.data.byteLength, 0)

describe('the fonts a title loads', () => {
  it('a Latin title loads only the base face, in each weight the image uses', async () => {
    const runs: TextRun[] = [
      { text: 'Heardly', weight: 700 },
      { text: 'Talk to a hundred users before lunch', weight: 800 },
      { text: 'An AI agent interviews your real users 24/7.', weight: 400 },
    ]
    expect((await names(runs)).sort()).toEqual(['Geist@400', 'Geist@700', 'Geist@800'])
    expect(await bytes(runs)).toBeLessThan(150_000)
  })

  it('adds the subset of each other script the title uses, in the weight it is set in', async () => {
    expect(await names(headline('مرحبا'))).toEqual(['Geist@800', 'noto-sans-arabic-arabic@800'])
    expect(await names(headline('नमस्ते'))).toEqual(['Geist@800', 'noto-sans-devanagari@800'])
    expect(await names(headline('Ελληνικά Кириллица'))).toEqual(['Geist@800', 'noto-sans-greek@800', 'noto-sans-cyrillic@800'])
    expect(await names(headline('שלום'))).toContain('noto-sans-hebrew-hebrew@800')
    expect(await names(headline('สวัสดี'))).toContain('noto-sans-thai-thai@800')
  })

  it('draws Chinese and kana with Noto Sans SC and Hangul with Noto Sans KR, a few slices each, not the whole family', async () => {
    const chinese = await names(headline('你好世界 こんにちは'))
    expect(chinese.filter((name) => name.startsWith('noto-sans-sc-')).length).toBeGreaterThan(0)
    expect(chinese.some((name) => name.startsWith('noto-sans-kr-'))).toBe(false)
    const korean = await names(headline('안녕하세요'))
    expect(korean.filter((name) => name.startsWith('noto-sans-kr-')).length).toBeGreaterThan(0)
    expect(korean.some((name) => name.startsWith('noto-sans-sc-'))).toBe(false)
    expect(await bytes(headline('你好世界 こんにちは 안녕하세요'))).toBeLessThan(1_000_000)
  })

  it('loads no font for emoji (they are pictures) nor for a script no package has', async () => {
    expect(await names(headline('🚀 👨‍👩‍👧‍👦 🇫🇷 #️⃣'))).toEqual(['Geist@800'])
    expect(await names(headline('ᏣᎳᎩ'))).toEqual(['Geist@800'])
  })

  it('hands out the same buffer each time, so satori parses each font once', async () => {
    const [first] = await fontsFor(headline('مرحبا'))
    const [again] = await fontsFor(headline('مرحبا'))
    expect(again!.data).toBe(first!.data)
  })
})

describe('emoji', () => {
  it("names an emoji's Twemoji file as Twemoji does", () => {
    expect(twemojiName('🚀')).toBe('1f680')
    expect(twemojiName('❤️')).toBe('2764')
    expect(twemojiName('#️⃣')).toBe('23-20e3')
    expect(twemojiName('🇫🇷')).toBe('1f1eb-1f1f7')
    expect(twemojiName('👍🏽')).toBe('1f44d-1f3fd')
    expect(twemojiName('👨‍👩‍👧‍👦')).toBe('1f468-200d-1f469-200d-1f467-200d-1f466')
    expect(twemojiName('🏳️‍🌈')).toBe('1f3f3-fe0f-200d-1f308')
  })

  it('has a picture for ZWJ sequences, flags, keycaps, skin tones and subdivision flags', async () => {
    for (const emoji of ['🚀', '❤️', '#️⃣', '🇯🇵', '👍🏽', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🏴󠁧󠁢󠁥󠁮󠁧󠁿', '🧑‍💻']) {
      expect(await loadEmoji(emoji), emoji).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/)
    }
    expect(await loadAdditionalAsset('emoji', '🚀')).toBe(await loadEmoji('🚀'))
  })

  it('gives nothing for text satori cannot draw: no font is looked for elsewhere', async () => {
    expect(await loadAdditionalAsset('unknown', 'ᏣᎳᎩ')).toEqual([])
    expect(await loadAdditionalAsset('ar-AR', 'مرحبا')).toEqual([])
  })

  it('no text can name a file outside the Twemoji folder', async () => {
    // A file name is only hex code points and dashes, whatever the segment holds.
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => /^([0-9a-f]+(-[0-9a-f]+)*)?$/.test(twemojiName(text))))
    expect(twemojiName('../../package.json')).not.toMatch(/[./]/)
    expect(await loadEmoji('../../package')).toBeUndefined()
  })
})
