import { defineField } from 'sanity'

/** Testimonials and logos may be illustrative until real ones are cleared for use. */
export function sampleFlagField({ initialValue = true }: { initialValue?: boolean } = {}) {
  return defineField({
    name: 'isSample',
    title: 'Sample content',
    description: 'On while this is illustrative rather than a real customer. The site labels it "Sample".',
    type: 'boolean',
    initialValue,
  })
}
