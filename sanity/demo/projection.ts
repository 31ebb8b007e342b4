/** A demo conversation as the widget and the hero's still picture read it. */
export const demoConversationProjection = /* groq */ `{
  _id,
  context,
  opening,
  steps[]{_key, replies[]{_key, text, followUp}, followUp, quoted},
  insight{channel, summary, tags, sentiment, action}
}`
