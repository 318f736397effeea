import FlightVoiceCLI
import Foundation

exit(FlightVoiceCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
