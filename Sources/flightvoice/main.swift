import FlightVoiceCLI
import Foundation
import Whisper

// OpenBLAS's kernels are chosen before any other thread starts: the choice sets an environment variable for a moment
// (`BLAS.coreName`).
_ = BLAS.coreName
exit(FlightVoiceCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
