// Package config is the one schema of Primeur's settings: their keys,
// defaults, help texts and validation. The commands package loads values into
// it from flags, PRIMEUR_* environment variables and a config file (in that
// order of precedence); everything else receives a validated *Config.
package config

import (
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"path/filepath"
	"strings"
	"time"
)

// Setting describes one configuration key.
type Setting struct {
	// Key is the viper key and the long flag name; PRIMEUR_<KEY> (upper case,
	// dashes and dots as underscores) is its environment variable.
	Key string
	// Default is the value used when nothing else sets the key.
	Default any
	// Usage is the help text of the flag.
	Usage string
}

// Keys of the settings.
const (
	KeyAddr          = "addr"
	KeyDataDir       = "data-dir"
	KeyDatabaseURL   = "database-url"
	KeyBaseURL       = "base-url"
	KeySecureCookies = "secure-cookies"
	KeyTimezone      = "timezone"
	KeyLogLevel      = "log-level"
	KeyLogFormat     = "log-format"

	// KeyTrustedProxies lists the reverse proxies whose forwarding
	// headers are believed (TrustedProxies).
	KeyTrustedProxies = "trusted-proxies"

	KeyRegistrationsPerHour = "registrations-per-hour"

	KeySMTPHost                = "smtp.host"
	KeySMTPPort                = "smtp.port"
	KeySMTPUsername            = "smtp.username"
	KeySMTPPassword            = "smtp.password"
	KeySMTPFrom                = "smtp.from"
	KeySMTPTLS                 = "smtp.tls"
	KeyDeliveryLock            = "delivery.lock"
	KeyClaimsAutovalidateAfter = "claims.autovalidate-after"
	KeyMetricsToken            = "metrics.token"
	KeyPaymentsECBRate         = "payments.ecb-rate"
	KeyPaymentsECBRates        = "payments.ecb-rates"
	KeyAccessibilityContact    = "accessibility.contact"
)

// Settings is the schema: every key Primeur reads, with its default.
var Settings = []Setting{
	{KeyAddr, "127.0.0.1:8080", "adresse où le démon écoute (hôte:port)"},
	{KeyDataDir, "./data", "dossier de la base SQLite, de la boîte d'envoi et des autres fichiers"},
	{KeyDatabaseURL, "", "URL PostgreSQL (postgres://…) ; vide : SQLite dans le dossier de données"},
	{KeyBaseURL, "", "URL publique du site (https://…), citée dans les emails ; en https, les cookies sont sécurisés"},
	{KeySecureCookies, false, "marquer les cookies de session Secure (implicite quand base-url est en https)"},
	{KeyTrustedProxies, "", "mandataires inverses dont on croit X-Forwarded-For, Forwarded et X-Forwarded-Proto : adresses ou CIDR séparés par des virgules (127.0.0.1,::1 pour un mandataire sur cette machine) ; vide : aucun, le client est le pair TCP"},
	{KeyTimezone, "Europe/Paris", "fuseau horaire des jours de livraison, des verrouillages et des tâches"},
	{KeyLogLevel, "info", "niveau de journal : debug, info, warn ou error"},
	{KeyLogFormat, "text", "format du journal (sortie d'erreur) : text (clé=valeur, logfmt) ou json (un objet JSON par ligne)"},
	{KeyRegistrationsPerHour, 10, "inscriptions acceptées d'une même adresse client en une heure"},
	{KeySMTPHost, "", "serveur SMTP des emails ; vide : chaque message est écrit en fichier .eml dans <data-dir>/outbox"},
	{KeySMTPPort, 587, "port du serveur SMTP"},
	{KeySMTPUsername, "", "identifiant SMTP ; vide : envoi sans authentification"},
	{KeySMTPPassword, "", "mot de passe SMTP"},
	{KeySMTPFrom, "Primeur <no-reply@primeur.local>", "expéditeur des emails (adresse, ou \"Nom <adresse>\")"},
	{KeySMTPTLS, "starttls", "chiffrement SMTP : starttls (exigé), tls (implicite, en général port 465) ou none"},
	{KeyDeliveryLock, "12:00", "heure (HH:MM, fuseau de l'activité) du jour de livraison où le bon de livraison se verrouille"},
	{KeyClaimsAutovalidateAfter, "48h", "délai après lequel une réclamation à laquelle le magasin n'a pas répondu est acceptée"},
	{KeyPaymentsECBRates, "", "taux de refinancement principal de la BCE en vigueur au 1er janvier ou au 1er juillet, par semestre, en pourcentage (2026-S2=2.15,2027-S1=2.40) : ajoutés aux taux connus de Primeur (jusqu'à 2026-S1) ou les remplaçant ; les pénalités de retard y ajoutent 10 points (art. L441-10)"},
	{KeyPaymentsECBRate, "", "obsolète : le taux de la BCE en pourcentage des semestres après le dernier connu ou listé dans payments.ecb-rates (vide : celui du dernier)"},
	{KeyMetricsToken, "", "jeton (bearer) qui permet à un client d'une autre machine de lire /metrics (au moins 16 caractères) ; vide : cette machine seulement"},
	{KeyAccessibilityContact, "", "adresse email que la déclaration d'accessibilité donne pour signaler un problème (adresse, ou \"Nom <adresse>\") ; vide : l'adresse de smtp.from, sauf si elle est de type no-reply"},
}

// Config is the validated configuration handed to the daemon and commands.
type Config struct {
	// Addr is the listen address of the daemon.
	Addr string `mapstructure:"addr"`
	// DataDir holds primeur.db (SQLite), the mail outbox and other files.
	DataDir string `mapstructure:"data-dir"`
	// DatabaseURL selects PostgreSQL when set.
	DatabaseURL string `mapstructure:"database-url"`
	// BaseURL is the public URL of the site, without trailing slash.
	BaseURL string `mapstructure:"base-url"`
	// SecureCookies marks the session cookie Secure.
	SecureCookies bool `mapstructure:"secure-cookies"`
	// TrustedProxies lists, comma-separated, the addresses and CIDRs of
	// the reverse proxies whose forwarding headers are believed
	// (docs/SECURITY.md "Client address").
	TrustedProxies string `mapstructure:"trusted-proxies"`
	// RegistrationsPerHour bounds the registrations from one client
	// address in an hour (docs/SECURITY.md "Registration throttling").
	RegistrationsPerHour int `mapstructure:"registrations-per-hour"`
	// Timezone is the IANA name of the business time zone.
	Timezone string `mapstructure:"timezone"`
	// LogLevel is debug, info, warn or error.
	LogLevel string `mapstructure:"log-level"`
	// LogFormat is text (logfmt) or json (one object a line).
	LogFormat string `mapstructure:"log-format"`
	// SMTP is the mail server; without Host, mail goes to the outbox.
	SMTP SMTP `mapstructure:"smtp"`
	// Delivery holds the delivery settings.
	Delivery Delivery `mapstructure:"delivery"`
	// Claims holds the claim settings.
	Claims Claims `mapstructure:"claims"`
	// Payments holds the payment settings.
	Payments Payments `mapstructure:"payments"`
	// Metrics holds who may read /metrics.
	Metrics Metrics `mapstructure:"metrics"`
	// Accessibility holds the accessibility statement's settings.
	Accessibility Accessibility `mapstructure:"accessibility"`

	// Location is Timezone loaded by Validate.
	Location *time.Location `mapstructure:"-"`
	// Level is LogLevel parsed by Validate.
	Level slog.Level `mapstructure:"-"`
	// Proxies is TrustedProxies parsed by Validate: a single address is
	// a prefix of its full length.
	Proxies []netip.Prefix `mapstructure:"-"`
}

// SMTP is the mail server's settings (keys smtp.*).
type SMTP struct {
	// Host is the server's name; empty writes messages to the outbox.
	Host string `mapstructure:"host"`
	// Port is the server's port.
	Port int `mapstructure:"port"`
	// Username and Password authenticate when Username is set.
	Username string `mapstructure:"username"`
	Password string `mapstructure:"password"`
	// From is the sender, "address" or "Name <address>".
	From string `mapstructure:"from"`
	// TLS is starttls, tls or none.
	TLS string `mapstructure:"tls"`
}

// Log formats (log-format).
const (
	LogText = "text"
	LogJSON = "json"
)

// SMTP encryption modes.
const (
	TLSStartTLS = "starttls"
	TLSImplicit = "tls"
	TLSNone     = "none"
)

// Delivery is the delivery settings (keys delivery.*).
type Delivery struct {
	// Lock is "HH:MM": planned deliveries lock at this time on their date.
	Lock string `mapstructure:"lock"`
	// LockAt is Lock as a duration after midnight, filled by Validate.
	LockAt time.Duration `mapstructure:"-"`
}

// Claims is the claim settings (keys claims.*).
type Claims struct {
	// AutovalidateAfter is the delay ("48h") before an unreviewed claim is
	// accepted by the system.
	AutovalidateAfter string `mapstructure:"autovalidate-after"`
	// AutovalidateDelay is AutovalidateAfter parsed by Validate.
	AutovalidateDelay time.Duration `mapstructure:"-"`
}

// Payments is the payment settings (keys payments.*).
type Payments struct {
	// ECBRates lists the ECB's main refinancing rate per semester, in
	// percent ("2026-S2=2.15,2027-S1=2.40"), over KnownECBRates.
	ECBRates string `mapstructure:"ecb-rates"`
	// ECBRate, deprecated, is the rate in percent ("2.15") of the
	// semesters after the last one listed; "" leaves them the last one's.
	ECBRate string `mapstructure:"ecb-rate"`
	// Rates are the rates per semester, filled by Validate.
	Rates ECBRates `mapstructure:"-"`
}

// Metrics is the settings of the daemon's /metrics (keys metrics.*).
type Metrics struct {
	// Token, when set, lets a client that is not on this machine read
	// /metrics with "Authorization: Bearer <token>"; loopback clients
	// need none.
	Token string `mapstructure:"token"`
}

// Accessibility is the accessibility statement's settings (keys
// accessibility.*).
type Accessibility struct {
	// Contact is where users report an accessibility problem (RGAA's
	// "Retour d'information et contact"): "address" or "Name <address>";
	// empty falls back on the mail sender (see AccessibilityContact).
	Contact string `mapstructure:"contact"`
}

// ContactSource says where the accessibility contact comes from.
type ContactSource string

// Sources of the accessibility contact.
const (
	// ContactFromSetting is accessibility.contact.
	ContactFromSetting ContactSource = "setting"
	// ContactFromMailSender is the address of smtp.from, accessibility.contact
	// being empty.
	ContactFromMailSender ContactSource = "mail-sender"
	// ContactNone is no address: accessibility.contact is empty and smtp.from
	// is a no-reply address.
	ContactNone ContactSource = "none"
)

// noReplyLocalParts are the local parts of sender addresses that nobody
// reads, lower-cased without dots, dashes and underscores.
var noReplyLocalParts = map[string]bool{"noreply": true, "donotreply": true, "nepasrepondre": true}

// AccessibilityContact is the email address (bare, without a name) that
// the accessibility statement gives, and where it comes from:
// accessibility.contact when set; else the address of smtp.from unless it
// is a no-reply one (the default no-reply@primeur.local, or a local part
// such as no-reply, noreply, donotreply or ne-pas-repondre); else none
// ("", ContactNone). Call it on a validated Config.
func (c *Config) AccessibilityContact() (string, ContactSource) {
	if a, err := mail.ParseAddress(c.Accessibility.Contact); err == nil {
		return a.Address, ContactFromSetting
	}
	a, err := mail.ParseAddress(c.SMTP.From)
	if err != nil {
		return "", ContactNone
	}
	local, _, _ := strings.Cut(a.Address, "@")
	local = strings.NewReplacer(".", "", "-", "", "_", "").Replace(strings.ToLower(local))
	if noReplyLocalParts[local] {
		return "", ContactNone
	}
	return a.Address, ContactFromMailSender
}

// MinMetricsToken is the shortest metrics.token accepted.
const MinMetricsToken = 16

// Defaults returns a Config holding every default, validated.
func Defaults() *Config {
	c := &Config{}
	for _, s := range Settings {
		c.set(s.Key, s.Default)
	}
	if err := c.Validate(); err != nil {
		panic("config: defaults are invalid: " + err.Error())
	}
	return c
}

func (c *Config) set(key string, v any) {
	switch key {
	case KeyAddr:
		c.Addr = v.(string)
	case KeyDataDir:
		c.DataDir = v.(string)
	case KeyDatabaseURL:
		c.DatabaseURL = v.(string)
	case KeyBaseURL:
		c.BaseURL = v.(string)
	case KeySecureCookies:
		c.SecureCookies = v.(bool)
	case KeyTrustedProxies:
		c.TrustedProxies = v.(string)
	case KeyTimezone:
		c.Timezone = v.(string)
	case KeyLogLevel:
		c.LogLevel = v.(string)
	case KeyLogFormat:
		c.LogFormat = v.(string)
	case KeyRegistrationsPerHour:
		c.RegistrationsPerHour = v.(int)
	case KeySMTPHost:
		c.SMTP.Host = v.(string)
	case KeySMTPPort:
		c.SMTP.Port = v.(int)
	case KeySMTPUsername:
		c.SMTP.Username = v.(string)
	case KeySMTPPassword:
		c.SMTP.Password = v.(string)
	case KeySMTPFrom:
		c.SMTP.From = v.(string)
	case KeySMTPTLS:
		c.SMTP.TLS = v.(string)
	case KeyDeliveryLock:
		c.Delivery.Lock = v.(string)
	case KeyClaimsAutovalidateAfter:
		c.Claims.AutovalidateAfter = v.(string)
	case KeyMetricsToken:
		c.Metrics.Token = v.(string)
	case KeyPaymentsECBRate:
		c.Payments.ECBRate = v.(string)
	case KeyPaymentsECBRates:
		c.Payments.ECBRates = v.(string)
	case KeyAccessibilityContact:
		c.Accessibility.Contact = v.(string)
	}
}

// Validate checks every value and fills the derived fields. Its error is one
// French line naming the key, the value (but a secret's) and the form
// expected, fit to print as is.
func (c *Config) Validate() error {
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return fmt.Errorf("%s « %s » : une adresse hôte:port est attendue (127.0.0.1:8080)", KeyAddr, c.Addr)
	}
	if strings.TrimSpace(c.DataDir) == "" {
		return fmt.Errorf("%s : un dossier est attendu, pas une valeur vide", KeyDataDir)
	}
	c.DataDir = filepath.Clean(c.DataDir)
	if c.DatabaseURL != "" {
		u, err := url.Parse(c.DatabaseURL)
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			return fmt.Errorf("%s : une URL postgres:// est attendue (postgres://utilisateur@serveur:5432/base)", KeyDatabaseURL)
		}
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s « %s » : une URL absolue http:// ou https:// est attendue (https://primeur.example.fr)", KeyBaseURL, c.BaseURL)
		}
		c.BaseURL = strings.TrimRight(c.BaseURL, "/")
		if u.Scheme == "https" {
			c.SecureCookies = true
		}
	}
	proxies, err := ParseProxies(c.TrustedProxies)
	if err != nil {
		return err
	}
	c.Proxies = proxies
	loc, err := time.LoadLocation(c.Timezone)
	if err != nil || c.Timezone == "" {
		return fmt.Errorf("%s « %s » : un fuseau horaire connu est attendu (Europe/Paris)", KeyTimezone, c.Timezone)
	}
	c.Location = loc
	if err := c.Level.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return fmt.Errorf("%s « %s » : debug, info, warn ou error est attendu", KeyLogLevel, c.LogLevel)
	}
	switch c.LogFormat {
	case LogText, LogJSON:
	default:
		return fmt.Errorf("%s « %s » : text ou json est attendu", KeyLogFormat, c.LogFormat)
	}
	if c.RegistrationsPerHour < 1 {
		return fmt.Errorf("%s %d : un nombre d'au moins 1 est attendu", KeyRegistrationsPerHour, c.RegistrationsPerHour)
	}
	c.Accessibility.Contact = strings.TrimSpace(c.Accessibility.Contact)
	if c.Accessibility.Contact != "" {
		if _, err := mail.ParseAddress(c.Accessibility.Contact); err != nil {
			return fmt.Errorf("%s « %s » : une adresse email est attendue (adresse, ou \"Nom <adresse>\")", KeyAccessibilityContact, c.Accessibility.Contact)
		}
	}
	return c.validateMail()
}

// validateMail checks the SMTP, delivery and claim settings.
func (c *Config) validateMail() error {
	c.SMTP.Host = strings.TrimSpace(c.SMTP.Host)
	if c.SMTP.Port < 1 || c.SMTP.Port > 65535 {
		return fmt.Errorf("%s %d : un numéro de port est attendu (de 1 à 65535)", KeySMTPPort, c.SMTP.Port)
	}
	if _, err := mail.ParseAddress(c.SMTP.From); err != nil {
		return fmt.Errorf("%s « %s » : une adresse email est attendue (adresse, ou \"Nom <adresse>\")", KeySMTPFrom, c.SMTP.From)
	}
	switch c.SMTP.TLS {
	case TLSStartTLS, TLSImplicit, TLSNone:
	default:
		return fmt.Errorf("%s « %s » : starttls, tls ou none est attendu", KeySMTPTLS, c.SMTP.TLS)
	}
	lock, err := time.Parse("15:04", c.Delivery.Lock)
	if err != nil || len(c.Delivery.Lock) != 5 {
		return fmt.Errorf("%s « %s » : une heure HH:MM est attendue (12:00)", KeyDeliveryLock, c.Delivery.Lock)
	}
	c.Delivery.LockAt = time.Duration(lock.Hour())*time.Hour + time.Duration(lock.Minute())*time.Minute
	if c.Delivery.LockAt > InvoiceHour*time.Hour {
		return fmt.Errorf("%s « %s » : %d:00 au plus tard est attendu ; les factures du mois sont émises à cette heure son dernier jour, une fois ses livraisons verrouillées",
			KeyDeliveryLock, c.Delivery.Lock, InvoiceHour)
	}
	d, err := time.ParseDuration(c.Claims.AutovalidateAfter)
	if err != nil || d <= 0 {
		return fmt.Errorf("%s « %s » : une durée positive est attendue (48h, 90m…)", KeyClaimsAutovalidateAfter, c.Claims.AutovalidateAfter)
	}
	c.Claims.AutovalidateDelay = d
	if err := c.validateECBRates(); err != nil {
		return err
	}
	return c.validateMetrics()
}

// validateMetrics checks metrics.token: empty, or a secret long enough not
// to be guessed, without spaces (it travels in an HTTP header).
func (c *Config) validateMetrics() error {
	t := c.Metrics.Token
	if t == "" {
		return nil
	}
	if len(t) < MinMetricsToken || strings.IndexFunc(t, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0 {
		return fmt.Errorf("%s : au moins %d caractères ASCII imprimables, sans espace, sont attendus", KeyMetricsToken, MinMetricsToken)
	}
	return nil
}

// SiteURL is the site's public URL for links in emails: base-url, else
// the daemon's listen address.
func (c *Config) SiteURL() string {
	if c.BaseURL != "" {
		return c.BaseURL
	}
	return "http://" + c.Addr
}

// OutboxDir is where messages are written when no SMTP host is set.
func (c *Config) OutboxDir() string {
	return filepath.Join(c.DataDir, "outbox")
}

// SQLitePath is the database file used when DatabaseURL is empty.
func (c *Config) SQLitePath() string {
	return filepath.Join(c.DataDir, "primeur.db")
}

// InvoiceHour is when, on the last day of a month, the invoices job issues
// that month's invoices (billing.InvoiceHour): delivery.lock may be no
// later, so that the month's last deliveries are locked by then.
const InvoiceHour = 21
