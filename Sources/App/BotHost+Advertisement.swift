/// The bot's announcement on the LAN, made once it listens.
extension BotHost {
  /// Announces the bot on the LAN. Returns what to tell the operator when that is impossible.
  func advertise() -> String? {
    do throws(BotAdvertisementProblem) {
      advertisement = try BotAdvertisement(
        name: profile.name, port: port, rules: rules, timeControl: timeControl,
        fingerprint: identity.fingerprint.description, level: level, loop: loop, log: log)
      return nil
    } catch {
      return error.message
    }
  }
}
