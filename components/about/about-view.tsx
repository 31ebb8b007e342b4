import { LifeBuoy, Mail, MapPin } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import type { AboutPage, SiteSettings } from '@/lib/content'
import { Container } from '@/components/ui/container'
import { SectionHeading } from '@/components/ui/section-heading'
import { buttonVariants } from '@/components/ui/button'
import { LinkedInLogo, XLogo } from '@/components/ui/brand-icons'
import { CardGrid } from '@/components/landing/card-grid'
import { trackOn } from '@/lib/analytics/events'

export function AboutView({ page, settings }: { page: AboutPage; settings: SiteSettings }) {
  const { contact } = settings
  return (
    <>
      <section aria-labelledby="about-title" className="bg-gradient-to-b from-brand-50 to-white">
        <Container className="py-20 text-center sm:py-28">
          {page.hero.eyebrow ? <p className="text-sm font-semibold uppercase tracking-wide text-brand-600">{page.hero.eyebrow}</p> : null}
          <h1 id="about-title" className="mx-auto mt-3 max-w-3xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
            {page.hero.title}
          </h1>
          {page.hero.subtitle ? <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">{page.hero.subtitle}</p> : null}
        </Container>
      </section>

      <Container className="grid gap-12 py-16 md:grid-cols-2">
        {[page.mission, page.vision].map((block, index) => (
          <section key={block.title} aria-labelledby={`about-block-${index}`}>
            <h2 id={`about-block-${index}`} className="text-2xl font-bold text-slate-900">
              {block.title}
            </h2>
            <p className="mt-4 leading-relaxed text-slate-600">{block.body}</p>
          </section>
        ))}
      </Container>

      <section aria-labelledby="values-title" className="bg-slate-50 py-20">
        <Container>
          <SectionHeading id="values-title" heading={page.values} />
          <CardGrid items={page.values.items} />
        </Container>
      </section>

      <section aria-labelledby="team-title" className="py-20">
        <Container className="max-w-3xl text-center">
          <h2 id="team-title" className="text-3xl font-bold text-slate-900">
            {page.team.title}
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-600">{page.team.body}</p>
        </Container>
      </section>

      <section aria-labelledby="contact-title" className="bg-slate-50 py-20">
        <Container>
          <SectionHeading id="contact-title" heading={page.contact} />
          <dl className="mx-auto mt-12 grid max-w-4xl gap-6 sm:grid-cols-3">
            <ContactItem icon={<SvgIcon icon={Mail} className="size-5" />} label={page.contact.generalEmailLabel}>
              <a href={`mailto:${contact.generalEmail}`} className="text-brand-700 hover:underline" {...trackOn('contact_us_click', {})}>
                {contact.generalEmail}
              </a>
            </ContactItem>
            <ContactItem icon={<SvgIcon icon={MapPin} className="size-5" />} label={page.contact.locationLabel}>
              {contact.location}
            </ContactItem>
            <ContactItem icon={<SvgIcon icon={LifeBuoy} className="size-5" />} label={page.contact.supportEmailLabel}>
              <a href={`mailto:${contact.supportEmail}`} className="text-brand-700 hover:underline" {...trackOn('contact_us_click', {})}>
                {contact.supportEmail}
              </a>
            </ContactItem>
          </dl>
          <div className="mt-8 flex justify-center gap-3">
            <a href={contact.twitterUrl} aria-label="Twitter" rel="noopener noreferrer" className={buttonVariants({ variant: 'secondary', size: 'sm' })}>
              <XLogo className="size-4" />
            </a>
            <a href={contact.linkedinUrl} aria-label="LinkedIn" rel="noopener noreferrer" className={buttonVariants({ variant: 'secondary', size: 'sm' })}>
              <LinkedInLogo className="size-4" />
            </a>
          </div>
        </Container>
      </section>

      <section aria-labelledby="about-cta-title" className="bg-brand-700 py-20">
        <Container className="text-center">
          <SectionHeading id="about-cta-title" heading={page.cta} inverted />
          <a
            href="/waitlist"
            className={`${buttonVariants({ variant: 'inverted', size: 'lg' })} mt-10`}
            {...trackOn('start_free_trial_click', { button_location: 'about_cta' })}
          >
            {page.cta.buttonLabel}
          </a>
        </Container>
      </section>
    </>
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
