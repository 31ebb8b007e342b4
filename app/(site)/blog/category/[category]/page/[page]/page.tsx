import { listMetadata, listParams, PostListRoute } from '@/components/blog/post-list-route'

type Params = { params: Promise<{ category: string; page: string }> }

export const generateStaticParams = () => listParams({ withCategory: true, withPage: true })

export const generateMetadata = async ({ params }: Params) => listMetadata(await params)

export default async function CategoryListPage({ params }: Params) {
  return <PostListRoute address={await params} />
}
