import { listMetadata, listParams, PostListRoute } from '@/components/blog/post-list-route'

type Params = { params: Promise<{ page: string }> }

export const generateStaticParams = () => listParams({ withCategory: false, withPage: true })

export const generateMetadata = async ({ params }: Params) => listMetadata(await params)

export default async function BlogListPage({ params }: Params) {
  return <PostListRoute address={await params} />
}
