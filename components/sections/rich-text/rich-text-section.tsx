import { Container } from '@/components/ui/container'
import type { SectionProps } from '../types'
import { RichText } from './rich-text'

export function RichTextSection({ section, headingId, context }: SectionProps<'richTextSection'>) {
  return (
    <section id={section.anchorId ?? undefined} className="py-12 sm:py-16" data-rich-text="">
      <Container className="max-w-3xl">
        <RichText value={section.body} tocTitle={context.settings.labels.tableOfContents} tocId={headingId} />
      </Container>
    </section>
  )
}
