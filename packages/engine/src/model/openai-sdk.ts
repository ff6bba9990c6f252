import type OpenAI from 'openai'
import { lazySdk, sdkLoadError } from './lazy-sdk.js'
import { type SdkConnection, sdkClientOptions } from './sdk-options.js'

/** The `openai` SDK client for Chat Completions and Responses, imported on first use. */
export function lazyOpenAi(connection: SdkConnection): ReturnType<typeof lazySdk<OpenAI>> {
  return lazySdk<OpenAI>(
    () =>
      import('openai')
        .catch(sdkLoadError('OpenAI'))
        .then(({ default: OpenAISdk }) => new OpenAISdk(sdkClientOptions(connection))),
    'OpenAI',
  )
}
