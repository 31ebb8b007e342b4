import { llmsResponse } from '@/components/markdown/llms-route'
import { languageParams, routeLanguage, type LanguageParams } from '@/sanity/content/route-language'

// /llms.txt and /de/llms.txt (components/markdown/llms-route.ts): built at build time, refreshed by the publish webhook.

export const dynamic = 'force-static'

export const generateStaticParams = languageParams

export const GET = async (_request: Request, { params }: LanguageParams) => llmsResponse(await routeLanguage(params))
