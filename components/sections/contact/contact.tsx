import { LifeBuoy, Mail, MapPin } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import { Container } from '@/components/ui/container'
import { SectionHeading } from '@/components/ui/section-heading'
import { ButtonLink } from '@/components/ui/button'
import { LinkedInLogo, XLogo } from '@/components/ui/brand-icons'
import { trackOn } from '@/components/analytics/events'
import type { SectionProps } from '../types'

/** The company's addresses from Site settings → Contact, labelled by the section. */
export function ContactDetails({ section, headingId, context }: SectionProps<'contactSection'>) {
  const { contact } = context.settings
  return (
    <section id={section.anchorId ?? undefined} aria-labelledby={headingId} className="bg-slate-50 py-20">
      <Container>
        <SectionHeading id={headingId} heading={section} />
        <dl className="mx-auto mt-12 grid max-w-4xl gap-6 sm:grid-cols-3">
          <ContactItem icon={<SvgIcon icon={Mail} className="size-5" />} label={section.generalEmailLabel}>
            <a href={`mailto:${contact.generalEmail}`} className="text-brand-700 hover:underline" {...trackOn('contact_us_click', {})}>
              {contact.generalEmail}
            </a>
          </ContactItem>
          <ContactItem icon={<SvgIcon icon={MapPin} className="size-5" />} label={section.locationLabel}>
            {contact.location}
          </ContactItem>
          <ContactItem icon={<SvgIcon icon={LifeBuoy} className="size-5" />} label={section.supportEmailLabel}>
            <a href={`mailto:${contact.supportEmail}`} className="text-brand-700 hover:underline" {...trackOn('contact_us_click', {})}>
              {contact.supportEmail}
            </a>
          </ContactItem>
        </dl>
        <div className="mt-8 flex justify-center gap-3">
          <ButtonLink href={contact.twitterUrl} aria-label="Twitter" rel="noopener noreferrer" variant="secondary" size="sm">
            <XLogo className="size-4" />
          </ButtonLink>
          <ButtonLink href={contact.linkedinUrl} aria-label="LinkedIn" rel="noopener noreferrer" variant="secondary" size="sm">
            <LinkedInLogo className="size-4" />
          </ButtonLink>
        </div>
      </Container>
    </section>
  )
}

function ContactItem({ icon, label, children }: { icon: React.ReactNode; label: string; children: React.ReactNode }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center">
      <dt className="flex flex-col items-center gap-4 text-sm font-medium text-slate-500">
        <span className="grid size-11 place-items-center rounded-xl bg-brand-50 text-brand-600">{icon}</span>
        {label}
      </dt>
      <dd className="mt-1 font-medium text-slate-900">{children}</dd>
    </div>
  )
}
