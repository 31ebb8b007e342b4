import { feedResponse } from '@/components/blog/feed-route'

export const dynamic = 'force-static'

export const GET = () => feedResponse('article')
