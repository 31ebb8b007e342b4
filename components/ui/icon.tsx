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
  type IconNode,
} from 'lucide'
import type { IconName } from '@/sanity/content'
import { SvgIcon } from './svg-icon'

const ICONS: Record<IconName, IconNode> = {
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
  return <SvgIcon icon={ICONS[name]} className={className} />
}
