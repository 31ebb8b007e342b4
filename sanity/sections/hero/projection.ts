import { demoConversationProjection } from '../../demo/projection'

export const heroProjection = /* groq */ `_type == "heroSection" => {badge, title, titleHighlight, subtitle, primaryCtaLabel, secondaryCtaLabel, highlights, socialProof, "visual": visual->${demoConversationProjection}, visualCaption}`
