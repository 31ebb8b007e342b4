import { NotFoundView } from '@/components/site/not-found-view'

/** An unknown or unpublished page slug: the CMS 404, inside the site's layout, with status 404. */
export default function PageNotFound() {
  return <NotFoundView />
}
