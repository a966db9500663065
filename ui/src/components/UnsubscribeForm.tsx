import { unsubscribe } from '../store/email'
import { EmailLinkForm } from './EmailLinkForm'

export const UNSUBSCRIBE_TEXTS = {
  title: 'Notifications par email',
  question: 'Ne plus recevoir ces notifications par email ?',
  hint: 'Vous pourrez les réactiver à tout moment dans votre profil.',
  submit: 'Me désabonner',
  missingToken: "Ce lien est incomplet : ouvrez celui de l'email tel quel.",
  home: "Aller à l'accueil",
} as const

/**
 * The page of an email's unsubscribe link (PRODUCT §13 "Notifications",
 * /landing/unsubscribe#token), without login (EmailLinkForm).
 */
export function UnsubscribeForm({ token }: { token: string }) {
  return <EmailLinkForm id="unsubscribe" token={token} texts={UNSUBSCRIBE_TEXTS} send={unsubscribe} />
}
