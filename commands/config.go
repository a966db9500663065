package commands

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"primeur/core/config"
)

const flagConfigHelp = "fichier de configuration (YAML, TOML ou JSON) ; ses clés sont les noms des options"

// Keys given as flags to every command; serve adds its own (serveFlags).
var globalKeys = []string{config.KeyDataDir, config.KeyDatabaseURL, config.KeyTimezone, config.KeyLogLevel, config.KeyLogFormat}

// serveKeys are the settings only the daemon uses.
var serveKeys = []string{config.KeyAddr, config.KeyBaseURL, config.KeySecureCookies, config.KeyMetricsToken,
	config.KeyRegistrationsPerHour, config.KeyAccessibilityContact, config.KeyTrustedProxies}

// jobKeys are the settings of the scheduled jobs and their emails, read by
// serve (which schedules the jobs) and jobs (which runs one).
var jobKeys = []string{
	config.KeySMTPHost, config.KeySMTPPort, config.KeySMTPUsername, config.KeySMTPPassword,
	config.KeySMTPFrom, config.KeySMTPTLS, config.KeyDeliveryLock, config.KeyClaimsAutovalidateAfter,
	config.KeyPaymentsECBRates, config.KeyPaymentsECBRate,
}

func (a *app) addGlobalFlags(root *cobra.Command) {
	root.PersistentFlags().String("config", "", flagConfigHelp)
	addSettingFlags(root.PersistentFlags(), globalKeys)
}

// addSettingFlags declares a flag for each key, with the schema's default
// and usage, so the help shows them.
func addSettingFlags(fs *pflag.FlagSet, keys []string) {
	for _, key := range keys {
		for _, s := range config.Settings {
			if s.Key != key {
				continue
			}
			switch d := s.Default.(type) {
			case string:
				fs.String(s.Key, d, s.Usage)
			case bool:
				fs.Bool(s.Key, d, s.Usage)
			case int:
				fs.Int(s.Key, d, s.Usage)
			}
		}
	}
}

// loadConfig resolves every setting with the precedence flags > PRIMEUR_*
// environment > config file > defaults, validates the result and keeps it.
// An unknown PRIMEUR_* variable or key of the file, or a value of the wrong
// kind, is refused (configkeys.go); unknown flags are pflag's (flagError).
func (a *app) loadConfig(cmd *cobra.Command) error {
	if err := checkEnvironment(os.Environ()); err != nil {
		return err
	}
	v := a.v
	v.SetEnvPrefix("PRIMEUR")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_", ".", "_"))
	v.AutomaticEnv()
	for _, s := range config.Settings {
		v.SetDefault(s.Key, s.Default)
		if f := cmd.Flags().Lookup(s.Key); f != nil {
			if err := v.BindPFlag(s.Key, f); err != nil {
				return fmt.Errorf("config: %s: %w", s.Key, err)
			}
		}
	}
	if path, _ := cmd.Flags().GetString("config"); path != "" {
		if err := checkFileKeys(path); err != nil {
			return err
		}
		v.SetConfigFile(path)
		if err := v.ReadInConfig(); err != nil {
			return configFileError(path, err)
		}
	}
	if err := checkValueKinds(v); err != nil {
		return err
	}
	cfg := &config.Config{}
	if err := v.Unmarshal(cfg); err != nil {
		return fmt.Errorf("configuration illisible : %s", firstLine(err.Error()))
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	a.cfg = cfg
	return nil
}

// firstLine is the first non-empty line of s.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return s
}
