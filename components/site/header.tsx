import type { SiteSettings } from '@/sanity/content'
import { trackOn } from '@/components/analytics/events'
import { Container } from '@/components/ui/container'
import { ButtonLink, buttonVariants } from '@/components/ui/button'
import { DemoToggleButton } from '@/components/demo/demo-toggle-button'
import { StartTrialLink } from '@/components/waitlist/start-trial-link'
import { Logo } from './logo'
import { MobileMenu } from './mobile-menu'
import { NavDropdown } from './nav-dropdown'
import { SiteLink } from './site-link'
import { localizePath } from '@/lib/i18n/languages'
import { Search } from 'lucide'
import { SvgIcon } from '@/components/ui/svg-icon'
import { searchPath } from '@/components/search/path'

const navLinkClass = 'rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:text-slate-900'
const menuLinkClass = 'block rounded-md px-3 py-2 text-base font-medium text-slate-700 hover:bg-slate-50 hover:text-slate-900'

/** The header's last element: the page's rendering waits until it is parsed (e2e/header.spec.ts). */
const HEADER_END_ID = 'site-header-end'

export function Header({ settings }: { settings: SiteSettings }) {
  const { navigation, labels } = settings
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      {/* Chrome paints a page while it is still arriving: a header drawn before its last part came
          moved when the rest arrived (layout shifts of 0.009 and 0.004 in CI, under load). Rendering
          waits until the empty element that ends the header is parsed: Chrome stops waiting as soon
          as the named element is inserted, so naming the header itself released the paint at its
          start tag. Browsers without rel=expect ignore it. React hoists the link into <head>. */}
      <link rel="expect" href={`#${HEADER_END_ID}`} blocking="render" />
      <Container className="relative flex h-16 items-center gap-4">
        <Logo name={settings.siteName} href={localizePath('/', settings.language)} />
        {/* From lg: below it the full menu and the actions do not fit beside the logo (German at 768 px
            was 931 px wide); the phone menu holds the links there. Left-aligned after the logo, so
            its place never depends on what follows it. */}
        <nav aria-label={labels.mainNavigation} className="hidden items-center gap-1 lg:flex">
          {navigation.links.map((link) => (
            <SiteLink key={link.key} link={link} location="navigation" navigation plannedLabel={labels.planned} className={navLinkClass} />
          ))}
          <NavDropdown label={navigation.resourcesLabel}>
            {navigation.resources.map((link) => (
              <SiteLink
                key={link.key}
                link={link}
                location="navigation"
                navigation
                plannedLabel={labels.planned}
                className="block rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-50"
              />
            ))}
          </NavDropdown>
        </nav>
        <div className="ml-auto flex items-center gap-1 md:gap-2">
          {/* A plain link at every width, outside the phone menu (which needs JavaScript to open). */}
          <a
            href={searchPath(settings.language)}
            aria-label={settings.search.title}
            title={settings.search.title}
            className="rounded-md p-2 text-slate-700 hover:bg-slate-100 hover:text-slate-900"
          >
            <SvgIcon icon={Search} className="size-5" />
          </a>
          <div className="hidden items-center gap-2 md:flex">
            <HeaderActions settings={settings} location="navigation" />
          </div>
          <MobileMenu openLabel={navigation.menuLabel} closeLabel={labels.closeMenu}>
            <nav aria-label={labels.mainNavigation}>
              <Container className="space-y-1 py-4">
                {[...navigation.links, ...navigation.resources].map((link) => (
                  <SiteLink key={link.key} link={link} location="navigation_mobile" navigation plannedLabel={labels.planned} className={menuLinkClass} />
                ))}
                {/* From md the actions sit in the header itself. */}
                <div className="grid gap-2 border-t border-slate-200 pt-4 md:hidden">
                  <HeaderActions settings={settings} location="navigation_mobile" />
                </div>
              </Container>
            </nav>
          </MobileMenu>
        </div>
      </Container>
      <span id={HEADER_END_ID} hidden />
    </header>
  )
}

/** Try Demo, Sign in and Start Free Trial: small beside the menu, full width in the phone menu. */
function HeaderActions({ settings: { navigation, appUrl, language }, location }: { settings: SiteSettings; location: 'navigation' | 'navigation_mobile' }) {
  // Full width in the phone menu, small beside the desktop menu; Try Demo and Sign in are the quieter ones.
  const fit = location === 'navigation_mobile' ? { className: 'w-full' } : ({ size: 'sm' } as const)
  const quiet = { variant: location === 'navigation_mobile' ? 'secondary' : 'ghost', ...fit } as const
  return (
    <>
      <DemoToggleButton location={location} className={buttonVariants(quiet)}>
        {navigation.tryDemoLabel}
      </DemoToggleButton>
      <ButtonLink href={appUrl} {...quiet} {...trackOn('navigation_click', { menu_item: navigation.signInLabel })}>
        {navigation.signInLabel}
      </ButtonLink>
      <StartTrialLink location={location} language={language} {...fit}>
        {navigation.startTrialLabel}
      </StartTrialLink>
    </>
  )
}
