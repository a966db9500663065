// The page of an invitation's link (/landing/invitation#token, issue 41):
// the organisation and the role; a name and a new password for a new
// login, or the existing login's password; then into the organisation.
import { Alert, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import { type FormEvent, useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { ApiError, errorMessage } from '../api'
import { type PendingInvitation, acceptInvitation, readInvitation } from '../store/team'
import { ROLE_LABELS } from './roles'

export const INVITATION_TEXTS = {
  title: 'Rejoindre une équipe',
  loading: 'Lecture de l’invitation…',
  missingToken: 'Ce lien est incomplet : ouvrez-le tel qu’il figure dans l’email d’invitation.',
  invited: (org: string, role: string) => `Vous êtes invité(e) dans l’équipe ${org}, avec le rôle « ${role} ».`,
  existing: (email: string) => `Un accès existe déjà pour ${email} : saisissez son mot de passe.`,
  name: 'Votre nom',
  password: 'Mot de passe',
  newPassword: 'Choisissez un mot de passe (8 caractères min., des lettres et des chiffres)',
  submit: 'Rejoindre l’équipe',
} as const

export function InvitationForm({ token }: { token: string }) {
  const [, navigate] = useLocation()
  const [pending, setPending] = useState<PendingInvitation | null>(null)
  const [dead, setDead] = useState<string | null>(token ? null : INVITATION_TEXTS.missingToken)
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    if (!token) return
    readInvitation(token).then(setPending, (err: unknown) => setDead(errorMessage(err)))
  }, [token])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setErrors({})
    try {
      await acceptInvitation(token, name.trim(), password)
      navigate('/')
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors() : {}
      setErrors(Object.keys(fields).length > 0 ? fields : { form: errorMessage(err) })
      if (fields.token) setDead(fields.token)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="invitation-title">
      <Stack gap="sm">
        <Title order={2} id="invitation-title">
          {INVITATION_TEXTS.title}
        </Title>
        {dead ? (
          <Alert color="yellow" role="status">
            {dead}
          </Alert>
        ) : !pending ? (
          <Text>{INVITATION_TEXTS.loading}</Text>
        ) : (
          <>
            <Text>{INVITATION_TEXTS.invited(pending.organisation, ROLE_LABELS[pending.role])}</Text>
            {pending.hasLogin ? (
              <Text size="sm">{INVITATION_TEXTS.existing(pending.email)}</Text>
            ) : (
              <TextInput
                label={INVITATION_TEXTS.name}
                autoComplete="name"
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={errors.name}
              />
            )}
            <PasswordInput
              label={pending.hasLogin ? INVITATION_TEXTS.password : INVITATION_TEXTS.newPassword}
              autoComplete={pending.hasLogin ? 'current-password' : 'new-password'}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={errors.password}
            />
            {errors.form ? (
              <Alert color="red" role="alert">
                {errors.form}
              </Alert>
            ) : null}
            <Button type="submit" loading={busy}>
              {INVITATION_TEXTS.submit}
            </Button>
          </>
        )}
      </Stack>
    </form>
  )
}
