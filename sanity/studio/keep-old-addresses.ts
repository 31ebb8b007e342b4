import { useDocumentOperation, type DocumentActionComponent, type DocumentActionsResolver } from 'sanity'
import { MOVABLE_TYPES, previousSlugsAfter, type SlugHistory } from '../../lib/content/paths'

/**
 * The Publish of a page or post, keeping its old address: when the slug being published differs
 * from the one live now, the old slug is added to the draft's Old addresses (`previousSlugs`) first,
 * and the site redirects it (sanity/content/addresses.ts). The Studio waits for that edit to be
 * saved before it publishes (its publish needs the document in sync), so both go live together.
 */
function keepingOldAddresses(publish: DocumentActionComponent): DocumentActionComponent {
  const KeepOldAddresses: DocumentActionComponent = (props) => {
    const action = publish(props)
    const { patch } = useDocumentOperation(props.id, props.type)
    if (!action) return action
    return {
      ...action,
      onHandle: () => {
        const previousSlugs = props.draft ? previousSlugsAfter(props.published as SlugHistory | null, props.draft as SlugHistory) : undefined
        if (previousSlugs) patch.execute([{ set: { previousSlugs } }])
        action.onHandle?.()
      },
    }
  }
  KeepOldAddresses.action = publish.action
  KeepOldAddresses.displayName = 'KeepOldAddresses'
  return KeepOldAddresses
}

/** The document actions of a page or a post, with their Publish keeping the old address. */
export const keepOldAddresses: DocumentActionsResolver = (actions, { schemaType }) =>
  schemaType in MOVABLE_TYPES ? actions.map((action) => (action.action === 'publish' ? keepingOldAddresses(action) : action)) : actions
