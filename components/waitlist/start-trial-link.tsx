import type { ComponentProps } from 'react'
import { ButtonLink, type ButtonVariantProps } from '@/components/ui/button'
import { trackOn, type StartTrialLocation } from '@/components/analytics/events'
import { localizePath } from '@/lib/i18n/languages'
import { prerenderOn } from '@/lib/prerender'

/** Where every "start free trial" call to action leads: the waitlist, while there is one. */
export const START_TRIAL_PATH = '/waitlist'

type Props = {
  location: StartTrialLocation
  /** The page's language: the link leads to the waitlist page in it. */
  language: string
  appearance?: 'button' | 'text'
} & Omit<ComponentProps<'a'>, 'href'> &
  ButtonVariantProps

/**
 * Every "start free trial" call to action: where it goes and what it records
 * (`start_free_trial_click` with the button's location) are decided here once.
 * `appearance="text"` is an inline link styled by its `className` alone.
 */
export function StartTrialLink({ location, language, appearance = 'button', ...props }: Props) {
  const track = trackOn('start_free_trial_click', { button_location: location })
  const href = localizePath(START_TRIAL_PATH, language)
  // The waitlist is where most visitors go next: prerendered on hover (components/site/speculation-rules.tsx).
  if (appearance === 'text') {
    const { variant: _variant, size: _size, ...anchor } = props
    return <a href={href} {...track} {...prerenderOn} {...anchor} />
  }
  return <ButtonLink href={href} {...track} {...prerenderOn} {...props} />
}
