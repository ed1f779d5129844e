package config

import (
	"flag"
	"fmt"
	"regexp"
	"strings"
)

// The environment variables of the exchange rates (issue 12, server/fx). Every one is optional:
// unset, the server loads the ECB's own files and no second source.
const (
	EnvFXUpdates         = "PATRIMONIO_FX_UPDATES"
	EnvFXECBDailyURL     = "PATRIMONIO_FX_ECB_DAILY_URL"
	EnvFXECB90DayURL     = "PATRIMONIO_FX_ECB_90D_URL"
	EnvFXECBHistoryURL   = "PATRIMONIO_FX_ECB_HISTORY_URL"
	EnvFXExtraURL        = "PATRIMONIO_FX_EXTRA_URL"
	EnvFXExtraCurrencies = "PATRIMONIO_FX_EXTRA_CURRENCIES"
)

// FXConfig is the part of Config that says where exchange rates come from (embedded in Config).
// Empty URLs mean the ECB's own files (server/fx's defaults); the zero value is the default.
type FXConfig struct {
	// FXUpdatesOff turns the scheduled loading of rates off (PATRIMONIO_FX_UPDATES=off): the
	// server serves the rates it holds and loads none.
	FXUpdatesOff bool
	// The ECB's daily, 90-day and full-history files (the ECB's XML format).
	FXECBDailyURL, FXECB90DayURL, FXECBHistoryURL string
	// FXExtraURL is the base URL of an API in the Frankfurter format for currencies the ECB does
	// not publish; "" turns that source off. FXExtraCurrencies are the codes asked of it, comma
	// separated upper case ("" = ARS,CLP,COP,PEN,UYU).
	FXExtraURL, FXExtraCurrencies string
}

type rawFXConfig struct {
	updates, daily, ninety, history, extraURL, extraCurrencies string
}

func readFXEnv(getenv func(string) string) rawFXConfig {
	return rawFXConfig{
		updates:         strings.TrimSpace(getenv(EnvFXUpdates)),
		daily:           strings.TrimSpace(getenv(EnvFXECBDailyURL)),
		ninety:          strings.TrimSpace(getenv(EnvFXECB90DayURL)),
		history:         strings.TrimSpace(getenv(EnvFXECBHistoryURL)),
		extraURL:        strings.TrimSpace(getenv(EnvFXExtraURL)),
		extraCurrencies: strings.TrimSpace(getenv(EnvFXExtraCurrencies)),
	}
}

func addFXFlags(fs *flag.FlagSet, raw *rawFXConfig) {
	fs.StringVar(&raw.updates, "fx-updates", raw.updates, "load exchange rates every working day: on or off ("+EnvFXUpdates+", default on)")
	fs.StringVar(&raw.extraURL, "fx-extra-url", raw.extraURL, "base URL of a Frankfurter-format API for currencies the ECB does not publish ("+EnvFXExtraURL+")")
}

var currencyList = regexp.MustCompile(`^[A-Z]{3}(,[A-Z]{3})*$`)

// applyFX validates the raw values into cfg. The URLs are http(s); plain http is allowed
// anywhere (a mirror on the local network), since the rates are public.
func applyFX(cfg *Config, raw rawFXConfig) error {
	switch strings.ToLower(raw.updates) {
	case "", "on", "true", "1":
	case "off", "false", "0":
		cfg.FXUpdatesOff = true
	default:
		return fmt.Errorf("%s (-fx-updates): %q is not on or off", EnvFXUpdates, raw.updates)
	}
	for _, u := range []struct{ name, value string }{
		{EnvFXECBDailyURL, raw.daily}, {EnvFXECB90DayURL, raw.ninety}, {EnvFXECBHistoryURL, raw.history}, {EnvFXExtraURL, raw.extraURL},
	} {
		if u.value != "" && !strings.HasPrefix(u.value, "https://") && !strings.HasPrefix(u.value, "http://") {
			return fmt.Errorf("%s: must be an http:// or https:// URL", u.name)
		}
	}
	codes := strings.ToUpper(strings.ReplaceAll(raw.extraCurrencies, " ", ""))
	if codes != "" && !currencyList.MatchString(codes) {
		return fmt.Errorf("%s: must be ISO 4217 codes separated by commas, e.g. ARS,CLP,COP", EnvFXExtraCurrencies)
	}
	cfg.FXECBDailyURL, cfg.FXECB90DayURL, cfg.FXECBHistoryURL = raw.daily, raw.ninety, raw.history
	cfg.FXExtraURL, cfg.FXExtraCurrencies = raw.extraURL, codes
	return nil
}
