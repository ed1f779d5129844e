package config_test

import (
	"strings"
	"testing"

	"patrimonio/server/config"
)

func TestFXConfig(t *testing.T) {
	// Unset: the ECB's own files (server/fx's defaults), loading on, no second source.
	cfg, err := config.Load(envFrom(nil), nil)
	if err != nil || cfg.FXConfig != (config.FXConfig{}) {
		t.Fatalf("defaults: %+v %v", cfg.FXConfig, err)
	}
	cfg, err = config.Load(envFrom(map[string]string{
		"PATRIMONIO_FX_UPDATES":          "off",
		"PATRIMONIO_FX_ECB_DAILY_URL":    "http://mirror.lan/daily.xml",
		"PATRIMONIO_FX_ECB_90D_URL":      "https://mirror.example/90d.xml",
		"PATRIMONIO_FX_ECB_HISTORY_URL":  "https://mirror.example/hist.xml",
		"PATRIMONIO_FX_EXTRA_URL":        "https://rates.example/v1",
		"PATRIMONIO_FX_EXTRA_CURRENCIES": "ars, clp,UYU",
	}), nil)
	want := config.FXConfig{FXUpdatesOff: true, FXECBDailyURL: "http://mirror.lan/daily.xml", FXECB90DayURL: "https://mirror.example/90d.xml",
		FXECBHistoryURL: "https://mirror.example/hist.xml", FXExtraURL: "https://rates.example/v1", FXExtraCurrencies: "ARS,CLP,UYU"}
	if err != nil || cfg.FXConfig != want {
		t.Fatalf("set: %+v %v", cfg.FXConfig, err)
	}
	// The flag wins over the environment.
	if cfg, err := config.Load(envFrom(map[string]string{"PATRIMONIO_FX_UPDATES": "off"}), []string{"-fx-updates", "on"}); err != nil || cfg.FXUpdatesOff {
		t.Fatalf("flag: %+v %v", cfg.FXConfig, err)
	}
	for _, bad := range []struct{ name, value, inError string }{
		{"PATRIMONIO_FX_UPDATES", "sometimes", "on or off"},
		{"PATRIMONIO_FX_ECB_DAILY_URL", "ftp://ecb/daily.xml", "http"},
		{"PATRIMONIO_FX_EXTRA_CURRENCIES", "ARS;CLP", "ISO 4217"},
	} {
		_, err := config.Load(envFrom(map[string]string{bad.name: bad.value}), nil)
		if err == nil || !strings.Contains(err.Error(), bad.name) || !strings.Contains(err.Error(), bad.inError) {
			t.Errorf("%s=%s: %v", bad.name, bad.value, err)
		}
	}
}
