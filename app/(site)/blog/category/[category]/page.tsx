import { listMetadata, listParams, PostListRoute } from '@/components/blog/post-list-route'

type Params = { params: Promise<{ category: string }> }

export const generateStaticParams = () => listParams({ withCategory: true, withPage: false })

export const generateMetadata = async ({ params }: Params) => listMetadata(await params)

export default async function CategoryPage({ params }: Params) {
  return <PostListRoute address={await params} />
}
