import { Badge, Button, Card, List, Stack, Text, Title } from '@mantine/core'
import { Link } from 'wouter'

/** One claim of an explanatory panel; `soon` marks announced features. */
export interface Claim {
  text: string
  soon?: boolean
}

/** An explanatory panel of the landing page, one per user type (PRODUCT §1, §2). */
export function AudiencePanel(props: { title: string; intro: string; claims: Claim[]; cta: string; href: string }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={props.title}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          {props.title}
        </Title>
        <Text>{props.intro}</Text>
        <List spacing={6} size="sm">
          {props.claims.map((claim) => (
            <List.Item key={claim.text}>
              {claim.text}{' '}
              {claim.soon ? (
                <Badge size="xs" variant="light" color="orange">
                  bientôt
                </Badge>
              ) : null}
            </List.Item>
          ))}
        </List>
        <Button component={Link} href={props.href} variant="light" w="fit-content">
          {props.cta}
        </Button>
      </Stack>
    </Card>
  )
}
