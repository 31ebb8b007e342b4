import { listMetadata, listParams, PostListRoute } from '@/components/blog/post-list-route'

type Params = { params: Promise<{ lang: string; category: string }> }

export const generateStaticParams = ({ params }: { params: { lang: string } }) => listParams({ withCategory: true, withPage: false }, params.lang)

export const generateMetadata = async ({ params }: Params) => listMetadata(await params)

export default async function CategoryPage({ params }: Params) {
  return <PostListRoute address={await params} />
}
