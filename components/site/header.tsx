import type { SiteSettings } from '@/lib/content'
import { cn } from '@/lib/cn'
import { trackOn } from '@/lib/analytics/events'
import { Container } from '@/components/ui/container'
import { buttonVariants } from '@/components/ui/button'
import { DemoToggleButton } from '@/components/demo/demo-toggle-button'
import { Logo } from './logo'
import { MobileMenu } from './mobile-menu'
import { NavDropdown } from './nav-dropdown'
import { SiteLink } from './site-link'

const navLinkClass = 'rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:text-slate-900'
const menuLinkClass = 'block rounded-md px-3 py-2 text-base font-medium text-slate-700 hover:bg-slate-50 hover:text-slate-900'

export function Header({ settings }: { settings: SiteSettings }) {
  const { navigation, labels } = settings
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      <Container className="relative flex h-16 items-center justify-between gap-4">
        <Logo name={settings.siteName} />
        <nav aria-label={labels.mainNavigation} className="hidden items-center gap-1 md:flex">
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
        <div className="hidden items-center gap-2 md:flex">
          <DemoToggleButton location="navigation" className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
            {navigation.tryDemoLabel}
          </DemoToggleButton>
          <a href={settings.appUrl} className={buttonVariants({ variant: 'ghost', size: 'sm' })} {...trackOn('navigation_click', { menu_item: navigation.signInLabel })}>
            {navigation.signInLabel}
          </a>
          <a href="/waitlist" className={buttonVariants({ size: 'sm' })} {...trackOn('start_free_trial_click', { button_location: 'navigation' })}>
            {navigation.startTrialLabel}
          </a>
        </div>
        <MobileMenu openLabel={navigation.menuLabel} closeLabel={labels.closeMenu}>
          <nav aria-label={labels.mainNavigation}>
            <Container className="space-y-1 py-4">
              {[...navigation.links, ...navigation.resources].map((link) => (
                <SiteLink key={link.key} link={link} location="navigation_mobile" navigation plannedLabel={labels.planned} className={menuLinkClass} />
              ))}
              <div className="grid gap-2 border-t border-slate-200 pt-4">
                <DemoToggleButton location="navigation_mobile" className={cn(buttonVariants({ variant: 'secondary' }), 'w-full')}>
                  {navigation.tryDemoLabel}
                </DemoToggleButton>
                <a
                  href={settings.appUrl}
                  className={cn(buttonVariants({ variant: 'secondary' }), 'w-full')}
                  {...trackOn('navigation_click', { menu_item: navigation.signInLabel })}
                >
                  {navigation.signInLabel}
                </a>
                <a href="/waitlist" className={cn(buttonVariants(), 'w-full')} {...trackOn('start_free_trial_click', { button_location: 'navigation_mobile' })}>
                  {navigation.startTrialLabel}
                </a>
              </div>
            </Container>
          </nav>
        </MobileMenu>
      </Container>
    </header>
  )
}
