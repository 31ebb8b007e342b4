import { Mail, ShieldCheck } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import type { SiteSettings } from '@/sanity/content'
import { Container } from '@/components/ui/container'
import { LinkedInLogo, XLogo } from '@/components/ui/brand-icons'
import { Logo } from './logo'
import { trackOn } from '@/components/analytics/events'
import { publicEnv } from '@/lib/env'
import { CookieSettingsButton } from '@/components/analytics/cookie-settings-button'
import { SiteLink } from './site-link'
import { localizePath, type SiteLanguage } from '@/lib/i18n/languages'
import { LanguageSwitcher } from './language-switcher'

const MailIcon = ({ className }: { className?: string }) => <SvgIcon icon={Mail} className={className} />

const footerLinkClass = 'text-sm text-slate-400 hover:text-white'

export function Footer({ settings, languages }: { settings: SiteSettings; languages: SiteLanguage[] }) {
  const { footer, contact, labels, consent } = settings
  const social = [
    { href: contact.twitterUrl, label: 'Twitter', Icon: XLogo },
    { href: contact.linkedinUrl, label: 'LinkedIn', Icon: LinkedInLogo },
    { href: `mailto:${contact.generalEmail}`, label: contact.generalEmail, Icon: MailIcon, contact: true },
  ]
  return (
    <footer className="bg-slate-950 text-slate-300">
      <Container className="py-12 sm:py-16">
        <div className="grid gap-10 lg:grid-cols-5">
          <div className="lg:col-span-2">
            <Logo name={settings.siteName} href={localizePath('/', settings.language)} inverted />
            <p className="mt-4 max-w-sm text-sm text-slate-400">{footer.blurb}</p>
            <ul aria-label={footer.socialHeading} className="mt-6 flex gap-3">
              {social.map(({ href, label, Icon, contact: isContact }) => (
                <li key={label}>
                  <a
                    href={href}
                    aria-label={label}
                    rel="noopener noreferrer"
                    className="grid size-9 place-items-center rounded-lg bg-slate-800 text-slate-300 hover:bg-slate-700 hover:text-white"
                    {...(isContact ? trackOn('contact_us_click', {}) : {})}
                  >
                    <Icon className="size-4" />
                  </a>
                </li>
              ))}
            </ul>
          </div>
          {footer.columns.map((column) => (
            <div key={column.key}>
              <h2 className="text-sm font-semibold text-white">{column.title}</h2>
              <ul className="mt-4 space-y-3">
                {column.links.map((link) => (
                  <li key={link.key}>
                    <SiteLink link={link} location="footer" plannedLabel={labels.planned} className={footerLinkClass} />
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <div className="mt-12 flex flex-col gap-6 border-t border-slate-800 pt-8 lg:flex-row lg:items-center lg:justify-between">
          <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
            <p className="inline-flex items-center gap-2 text-sm text-slate-400">
              <span aria-hidden="true" className="size-2 rounded-full bg-emerald-400" />
              {footer.statusText}
            </p>
            {footer.badges.length > 0 ? (
              <ul className="flex flex-wrap gap-2">
                {footer.badges.map((badge) => (
                  <li key={badge} className="inline-flex items-center gap-1.5 rounded-md border border-slate-700 px-2 py-1 text-xs text-slate-300">
                    <SvgIcon icon={ShieldCheck} className="size-3.5" />
                    {badge}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:gap-6">
            <ul className="flex flex-wrap gap-x-5 gap-y-2">
              {footer.legalLinks.map((link) => (
                <li key={link.key}>
                  <SiteLink link={link} location="footer" plannedLabel={labels.planned} className={footerLinkClass} />
                </li>
              ))}
              {publicEnv.posthogKey ? (
                <li>
                  <CookieSettingsButton label={consent.settingsLabel} className={footerLinkClass} />
                </li>
              ) : null}
            </ul>
            <LanguageSwitcher languages={languages} current={settings.language} label={labels.language} />
            <p className="text-sm text-slate-400">{footer.copyright}</p>
          </div>
        </div>
      </Container>
    </footer>
  )
}
