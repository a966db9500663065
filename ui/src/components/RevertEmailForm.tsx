import { revertEmail } from '../store/email'
import { EmailLinkForm } from './EmailLinkForm'

export const REVERT_TEXTS = {
  title: 'Rétablir votre adresse de connexion',
  question: "L'adresse de connexion de votre compte a été remplacée. Ce n'était pas vous ?",
  hint: 'Votre adresse sera rétablie, toutes les sessions du compte fermées et son mot de passe désactivé : vous recevrez à cette adresse un lien pour en choisir un nouveau.',
  submit: 'Rétablir mon adresse',
  missingToken: "Ce lien est incomplet : ouvrez celui de l'email tel quel.",
  home: "Aller à l'accueil",
} as const

/**
 * The page of the way back of a login email change (PRODUCT §13 "Changing
 * the login email", /landing/revert#token), without login (EmailLinkForm).
 */
export function RevertEmailForm({ token }: { token: string }) {
  return <EmailLinkForm id="revert" token={token} texts={REVERT_TEXTS} send={revertEmail} color="red" />
}
