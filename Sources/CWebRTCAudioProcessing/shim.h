/* Nothing to import from C: the library's API is C++ (see WebRTCNoiseSuppression). */
