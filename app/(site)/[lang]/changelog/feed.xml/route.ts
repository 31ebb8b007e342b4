import { feedResponse } from '@/components/blog/feed-route'
import { languageParams, routeLanguage, type LanguageParams } from '@/sanity/content/route-language'

export const dynamic = 'force-static'

export const generateStaticParams = languageParams

export const GET = async (_request: Request, { params }: LanguageParams) => feedResponse('changelog', await routeLanguage(params))
