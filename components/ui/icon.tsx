import {
  ChartColumn,
  Clock,
  CodeXml,
  Globe,
  Heart,
  Lock,
  MessageSquare,
  Rocket,
  ShieldCheck,
  Hash,
  Sparkles,
  Store,
  Target,
  User,
  Users,
  Zap,
  type LucideIcon,
} from 'lucide-react'
import type { IconName } from '@/lib/content'

const ICONS: Record<IconName, LucideIcon> = {
  message: MessageSquare,
  sparkles: Sparkles,
  chart: ChartColumn,
  // Lucide ships no brand marks; a channel hash stands for Slack.
  slack: Hash,
  clock: Clock,
  target: Target,
  code: CodeXml,
  shield: ShieldCheck,
  users: Users,
  rocket: Rocket,
  store: Store,
  user: User,
  heart: Heart,
  zap: Zap,
  lock: Lock,
  globe: Globe,
}

/** Renders a content-chosen icon as inline SVG on the server: no icon code reaches the browser. */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  const Component = ICONS[name]
  return <Component aria-hidden="true" focusable="false" className={className} />
}
