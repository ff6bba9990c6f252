import { arr, num, str, withDefault } from '../schema/builder.js'

/** A list of strings, empty by default. */
export const strings = (description?: string) =>
  withDefault(arr(str(), description === undefined ? {} : { description }), [])
/** A price in USD per million tokens. */
export const dollarsPerMillion = () => num({ minimum: 0, description: 'USD per million tokens.' })
