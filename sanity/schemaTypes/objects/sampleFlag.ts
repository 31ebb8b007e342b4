import { defineField } from 'sanity'

/** Testimonials and logos may be illustrative until real ones are cleared for use. */
export function sampleFlagField({
  initialValue = true,
  description = 'On while this is illustrative rather than a real customer. The site labels it "Sample".',
}: { initialValue?: boolean; description?: string } = {}) {
  return defineField({
    name: 'isSample',
    title: 'Sample content',
    description,
    type: 'boolean',
    initialValue,
  })
}
