package app

import (
	"log/slog"

	"patrimonio/server/config"
	"patrimonio/server/connect"
	"patrimonio/server/connect/enablebanking"
	"patrimonio/server/connect/snaptrade"
	"patrimonio/server/store"
	psync "patrimonio/sync"
)

// newConnections builds the bank and broker connections (issue 15) from the configuration: each
// provider whose keys are set. Their credentials are sealed with the server's secret key; what
// they read is written through the sync engine as the server's own client.
func newConnections(cfg config.Config, db *store.DB, key []byte, engine *psync.Engine, logger *slog.Logger) (*connect.Service, error) {
	var providers []connect.Provider
	if cfg.EnableBankingEnabled() {
		p, err := enablebanking.New(enablebanking.Config{AppID: cfg.EnableBankingAppID, Key: cfg.EnableBankingKey, BaseURL: cfg.EnableBankingAPIURL})
		if err != nil {
			return nil, err
		}
		providers = append(providers, p)
	}
	if cfg.SnapTradeEnabled() {
		p, err := snaptrade.New(snaptrade.Config{ClientID: cfg.SnapTradeClientID, ConsumerKey: cfg.SnapTradeConsumerKey, BaseURL: cfg.SnapTradeAPIURL})
		if err != nil {
			return nil, err
		}
		providers = append(providers, p)
	}
	return connect.New(connect.Config{DB: db, Sync: engine, SecretKey: key, Providers: providers, PublicURL: cfg.PublicURL, Logger: logger})
}
