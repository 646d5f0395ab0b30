import Foundation

// The benchmark's baseline for a Swift program's resident memory: links Foundation (as the game's App module
// does), touches it (a date, the environment, a file), says it is ready, then waits for input without using
// the CPU. End of input quits.
let stamp = ISO8601DateFormatter().string(from: Date())
let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
let exists = FileManager.default.fileExists(atPath: home)
print("ready \(stamp) \(exists)")
while readLine() != nil {}
